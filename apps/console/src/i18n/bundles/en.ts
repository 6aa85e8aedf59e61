import base from '../locales/en.json';
import type { MessageTree } from '../message-tree.ts';

/**
 * The en messages every screen needs (its own chunk: loaded only when en is shown). The public holder pages' are in
 * `en-connect.ts`, the signed-in pages' in `en-workspace.ts`.
 */
export const messages: MessageTree = base as MessageTree;
