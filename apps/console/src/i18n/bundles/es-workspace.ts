import shell from '../../app/shell/locales/es.json';
import { type MessageTree, mergeMessages } from '../message-tree.ts';

/**
 * The es messages a signed-in user's first page needs, loaded with the app shell: the shell's own
 * (app/shell/locales: menu, organization switcher, words shared by signed-in pages, the menu labels of pages whose
 * messages come later) and those of the features the credential list uses. The other pages' are in
 * `es-workspace-pages.ts` (issue 16).
 */
export const messages: MessageTree = mergeMessages(
  shell as MessageTree,
  import.meta.glob<MessageTree>(
    [
      '../../features/*/locales/es.json',
      '!../../features/{connect,activity,credential-schemas,integrations,members,trust-anchors,verifications,wallet-providers}/locales/es.json',
    ],
    { eager: true, import: 'default' },
  ),
);
