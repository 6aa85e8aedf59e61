import * as adminService from '../../modules/admin/admin.service.ts';
import type { AdminCommand, AdminCommandDeps } from './types.ts';

const adminDeps = (deps: AdminCommandDeps): adminService.AdminDeps => ({
  db: deps.db,
  accountCenterIssuer: deps.config.accountCenter.enabled ? deps.config.accountCenter.publicUrl : undefined,
});
const text = (value: unknown) => (typeof value === 'string' ? value : undefined);

export const accountCommands: Record<string, AdminCommand> = {
  'user create': {
    usage:
      'user create --email <e-mail> --password <password> --first-name <name> --last-name <name> [--username <name>]',
    options: {
      email: { type: 'string' },
      password: { type: 'string' },
      username: { type: 'string' },
      'first-name': { type: 'string' },
      'last-name': { type: 'string' },
    },
    required: ['email', 'password', 'first-name', 'last-name'],
    async run(deps, args) {
      const user = await adminService.createUser(adminDeps(deps), {
        email: text(args.email)!,
        password: text(args.password)!,
        username: text(args.username),
        firstName: text(args['first-name']),
        lastName: text(args['last-name']),
      });
      return JSON.stringify(user);
    },
  },
  'user verify-email': {
    usage: 'user verify-email --email <e-mail>   (the address may then name a platform administrator)',
    options: { email: { type: 'string' } },
    required: ['email'],
    async run(deps, args) {
      return JSON.stringify(await adminService.verifyUserEmail(adminDeps(deps), text(args.email)!));
    },
  },
  'org create': {
    usage: 'org create  --name <name> --member <e-mail> [--description <text>] [--verified]',
    options: {
      name: { type: 'string' },
      member: { type: 'string' },
      description: { type: 'string' },
      verified: { type: 'boolean' },
    },
    required: ['name', 'member'],
    async run(deps, args) {
      const row = await adminService.createOrganization(adminDeps(deps), {
        name: text(args.name)!,
        description: text(args.description),
        memberEmail: text(args.member)!,
        verified: args.verified === true,
      });
      return `${row.id} ${row.name}`;
    },
  },
  'org list': {
    usage: 'org list    (one organization a line: id, then name)',
    options: {},
    async run(deps) {
      const rows = await adminService.listOrganizations(adminDeps(deps));
      return rows.map((r) => `${r.id} ${r.name}`).join('\n');
    },
  },
};
