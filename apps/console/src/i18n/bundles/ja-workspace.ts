import shell from '../../app/shell/locales/ja.json';
import { type MessageTree, mergeMessages } from '../message-tree.ts';

/**
 * The ja messages a signed-in user's first page needs, loaded with the app shell: the shell's own
 * (app/shell/locales: menu, organization switcher, words shared by signed-in pages, the menu labels of pages whose
 * messages come later) and those of the features the credential list uses. The other pages' are in
 * `ja-workspace-pages.ts` (issue 16).
 */
export const messages: MessageTree = mergeMessages(
  shell as MessageTree,
  import.meta.glob<MessageTree>(
    [
      '../../features/*/locales/ja.json',
      '!../../features/{connect,activity,credential-schemas,integrations,members,trust-anchors,verifications,wallet-providers}/locales/ja.json',
    ],
    { eager: true, import: 'default' },
  ),
);
