import base from '../locales/ja.json';
import { type MessageTree, mergeMessages } from '../message-tree.ts';

/**
 * The ja messages every screen needs (its own chunk: loaded only when ja is shown): the shared ones and the public
 * holder pages'. The signed-in pages' are in `ja-workspace.ts`.
 */
export const messages: MessageTree = mergeMessages(
  base as MessageTree,
  import.meta.glob<MessageTree>('../../features/connect/locales/ja.json', { eager: true, import: 'default' }),
);
