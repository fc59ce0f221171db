import type { Resource } from '../shared/operation';
import { agent } from './agent';
import { comment } from './comment';
import { contact } from './contact';
import { tag } from './tag';
import { task } from './task';

/** Every resource of the node, in the order the resource list shows them. */
export const RESOURCES: Resource[] = [agent, comment, contact, tag, task];
