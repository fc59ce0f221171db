import { runPart } from './parts.cts';

runPart('triggers');
