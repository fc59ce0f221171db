import { runPart } from './parts.cts';

runPart('events');
