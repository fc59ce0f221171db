import { runPart } from './parts.cts';

runPart('release');
