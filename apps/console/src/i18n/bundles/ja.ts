import base from '../locales/ja.json';
import type { MessageTree } from '../message-tree.ts';

/**
 * The ja messages every screen needs (its own chunk: loaded only when ja is shown). The public holder pages' are in
 * `ja-connect.ts`, the signed-in pages' in `ja-workspace.ts`.
 */
export const messages: MessageTree = base as MessageTree;
