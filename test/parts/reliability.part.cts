import { runPart } from './parts.cts';

runPart('reliability');
