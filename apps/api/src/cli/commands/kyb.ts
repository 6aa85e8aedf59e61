import * as kybService from '../../modules/kyb/kyb.service.ts';
import type { AdminCommand } from './types.ts';

const text = (value: unknown) => (typeof value === 'string' ? value : undefined);

/** KYB review from the command line: the CLI is trusted like a platform administrator. */
export const kybCommands: Record<string, AdminCommand> = {
  'kyb list': {
    usage: 'kyb list    (one pending application a line: application id, organization id, name, submitted at)',
    options: {},
    async run(deps) {
      const lines: string[] = [];
      for (let page = 1; ; page += 1) {
        const { rows, total } = await kybService.findApplicationsForReview(
          deps.db,
          deps.config,
          { kind: 'cli' },
          { status: 'PENDING', page, limit: 100 },
        );
        for (const r of rows) {
          lines.push(
            `${r.application.id} ${r.application.organizationId} ${r.organizationName} ${r.application.submittedAt.toISOString()}`,
          );
        }
        if (page * 100 >= total || rows.length === 0) break;
      }
      return lines.join('\n');
    },
  },
  'kyb approve': {
    usage: 'kyb approve --id <application id>',
    options: { id: { type: 'string' } },
    required: ['id'],
    async run(deps, args) {
      const r = await kybService.reviewApplication(deps, { kind: 'cli' }, text(args.id)!, { status: 'APPROVED' });
      return `${r.application.id} APPROVED ${r.organizationName}`;
    },
  },
  'kyb reject': {
    usage: 'kyb reject --id <application id> --reason <text>',
    options: { id: { type: 'string' }, reason: { type: 'string' } },
    required: ['id', 'reason'],
    async run(deps, args) {
      const reason = text(args.reason)?.trim() ?? '';
      if (!reason) throw new Error('--reason must not be empty');
      const r = await kybService.reviewApplication(deps, { kind: 'cli' }, text(args.id)!, {
        status: 'REJECTED',
        reason: reason.slice(0, 2000),
      });
      return `${r.application.id} REJECTED ${r.organizationName}`;
    },
  },
};
