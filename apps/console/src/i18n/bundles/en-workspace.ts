import shell from '../../app/shell/locales/en.json';
import { type MessageTree, mergeMessages } from '../message-tree.ts';

/**
 * The en messages a signed-in user's first page needs, loaded with the app shell: the shell's own
 * (app/shell/locales: menu, organization switcher, words shared by signed-in pages, the menu labels of pages whose
 * messages come later) and those of the features the credential list uses. The other pages' are in
 * `en-workspace-pages.ts` (issue 16).
 */
export const messages: MessageTree = mergeMessages(
  shell as MessageTree,
  import.meta.glob<MessageTree>(
    [
      '../../features/*/locales/en.json',
      '!../../features/{connect,activity,credential-schemas,integrations,members,trust-anchors,verifications,wallet-providers}/locales/en.json',
    ],
    { eager: true, import: 'default' },
  ),
);
