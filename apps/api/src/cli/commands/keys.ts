import { LocalKeyStore } from '../../modules/organization-keys/key-store.ts';
import { rotateKey } from '../../modules/organization-keys/organization-keys.service.ts';
import { loadPlatformCa } from '../../modules/organization-keys/platform-ca.ts';
import type { AdminCommand } from './types.ts';

export const keyCommands: Record<string, AdminCommand> = {
  'keys rotate': {
    usage: 'keys rotate --org <organization id>   (new credentials use the new key; old ones keep verifying)',
    options: { org: { type: 'string' } },
    required: ['org'],
    async run(deps, args) {
      const row = await rotateKey(
        {
          db: deps.db,
          keyStore: new LocalKeyStore(deps.secretBox),
          ca: await loadPlatformCa(deps.db, deps.secretBox, deps.config),
          publicUrl: deps.config.publicUrl,
        },
        String(args.org),
      );
      return `kid: ${row.kid}`;
    },
  },
};
