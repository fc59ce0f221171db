import { runPart } from './parts.cts';

runPart('simulator');
