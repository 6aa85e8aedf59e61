import { findAccountByEmail } from '@cp/id/accounts';
import type { Config } from './config/env.ts';
import type { AppContext } from './context.ts';
import * as adminService from './modules/admin/admin.service.ts';

/**
 * First start on an empty database: a demo account in a verified demo organization, so a newcomer can
 * sign in at once. Idempotent: nothing happens once the demo account exists.
 */
export async function seedDemo(ctx: AppContext, config: Config): Promise<'created' | 'exists' | 'disabled'> {
  if (!config.demo.enabled || !config.accountCenter.enabled) return 'disabled';
  const db = ctx.database.db;
  if (await findAccountByEmail(db, config.demo.email)) return 'exists';
  const deps = { db, accountCenterIssuer: config.accountCenter.publicUrl };
  await adminService.createUser(deps, {
    email: config.demo.email,
    password: config.demo.password,
    username: 'demo',
    firstName: 'Demo',
    lastName: 'User',
  });
  await adminService.createOrganization(deps, {
    name: config.demo.organizationName,
    description: 'An organization to try the platform with.',
    memberEmail: config.demo.email,
    verified: true,
  });
  return 'created';
}
