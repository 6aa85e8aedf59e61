import base from '../locales/es.json';
import type { MessageTree } from '../message-tree.ts';

/**
 * The es messages every screen needs (its own chunk: loaded only when es is shown). The public holder pages' are in
 * `es-connect.ts`, the signed-in pages' in `es-workspace.ts`.
 */
export const messages: MessageTree = base as MessageTree;
