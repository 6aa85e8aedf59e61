import base from '../locales/ko.json';
import { type MessageTree, mergeMessages } from '../message-tree.ts';

/**
 * The ko messages every screen needs (its own chunk: loaded only when ko is shown): the shared ones and the public
 * holder pages'. The signed-in pages' are in `ko-workspace.ts`.
 */
export const messages: MessageTree = mergeMessages(
  base as MessageTree,
  import.meta.glob<MessageTree>('../../features/connect/locales/ko.json', { eager: true, import: 'default' }),
);
