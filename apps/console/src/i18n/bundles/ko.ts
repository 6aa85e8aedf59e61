import base from '../locales/ko.json';
import type { MessageTree } from '../message-tree.ts';

/**
 * The ko messages every screen needs (its own chunk: loaded only when ko is shown). The public holder pages' are in
 * `ko-connect.ts`, the signed-in pages' in `ko-workspace.ts`.
 */
export const messages: MessageTree = base as MessageTree;
