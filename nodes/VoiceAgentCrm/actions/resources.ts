import type { Resource } from '../shared/operation';
import { agent } from './agent';

/** Every resource of the node, in the order the resource list shows them. */
export const RESOURCES: Resource[] = [agent];
