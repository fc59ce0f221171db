import { runPart } from './parts.cts';

runPart('repository');
