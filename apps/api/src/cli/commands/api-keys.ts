import { zCreateApiKeyRequest } from '@cp/contracts';
import { z } from 'zod';
import { AppError } from '../../errors/app-error.ts';
import * as apiKeysService from '../../modules/api-keys/api-keys.service.ts';
import { ADMIN_CLI_ACTOR } from '../../modules/audit-events/audit-events.service.ts';
import * as organizationsService from '../../modules/organizations/organizations.service.ts';
import type { AdminCommand } from './types.ts';

export const apiKeyCommands: Record<string, AdminCommand> = {
  'api-key create': {
    usage: 'api-key create --org <organization id> --name <name>   (prints `key: …` and `secret: …`)',
    options: { org: { type: 'string' }, name: { type: 'string' } },
    required: ['org', 'name'],
    async run(deps, args) {
      const organizationId = z.uuid().safeParse(args.org);
      if (!organizationId.success)
        throw new AppError('REQUEST_INVALID', { detail: '--org must be an organization id.' });
      const input = zCreateApiKeyRequest.safeParse({ name: args.name });
      if (!input.success) throw new AppError('REQUEST_INVALID', { detail: '--name must be 1 to 100 characters.' });
      const organizations = await organizationsService.listAllOrganizations(deps.db);
      if (!organizations.some((o) => o.id === organizationId.data)) throw new AppError('ORGANIZATION_NOT_FOUND');
      const { row, secret } = await apiKeysService.createApiKey(
        deps.db,
        { organizationId: organizationId.data, userId: null, actor: ADMIN_CLI_ACTOR },
        input.data,
      );
      return `key: ${row.keyId}\nsecret: ${secret}`;
    },
  },
};
