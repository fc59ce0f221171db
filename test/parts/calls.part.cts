import { runPart } from './parts.cts';

runPart('calls');
