import base from '../locales/es.json';
import { type MessageTree, mergeMessages } from '../message-tree.ts';

/**
 * The es messages every screen needs (its own chunk: loaded only when es is shown): the shared ones and the public
 * holder pages'. The signed-in pages' are in `es-workspace.ts`.
 */
export const messages: MessageTree = mergeMessages(
  base as MessageTree,
  import.meta.glob<MessageTree>('../../features/connect/locales/es.json', { eager: true, import: 'default' }),
);
