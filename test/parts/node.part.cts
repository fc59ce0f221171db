import { runPart } from './parts.cts';

runPart('node');
