import base from '../locales/en.json';
import { type MessageTree, mergeMessages } from '../message-tree.ts';

/**
 * The en messages every screen needs (its own chunk: loaded only when en is shown): the shared ones and the public
 * holder pages'. The signed-in pages' are in `en-workspace.ts`.
 */
export const messages: MessageTree = mergeMessages(
  base as MessageTree,
  import.meta.glob<MessageTree>('../../features/connect/locales/en.json', { eager: true, import: 'default' }),
);
