import type { SvgIconComponent } from '@mui/icons-material';
import AccountTreeOutlined from '@mui/icons-material/AccountTreeOutlined';
import BusinessOutlined from '@mui/icons-material/BusinessOutlined';
import FactCheckOutlined from '@mui/icons-material/FactCheckOutlined';
import GppGoodOutlined from '@mui/icons-material/GppGoodOutlined';
import GroupOutlined from '@mui/icons-material/GroupOutlined';
import HistoryOutlined from '@mui/icons-material/HistoryOutlined';
import IntegrationInstructionsOutlined from '@mui/icons-material/IntegrationInstructionsOutlined';
import SchemaOutlined from '@mui/icons-material/SchemaOutlined';
import VerifiedUserOutlined from '@mui/icons-material/VerifiedUserOutlined';
import WorkspacePremiumOutlined from '@mui/icons-material/WorkspacePremiumOutlined';

export interface NavItem {
  key:
    | 'credentials'
    | 'schemas'
    | 'verifications'
    | 'trust-anchors'
    | 'wallet-providers'
    | 'integrations'
    | 'organization'
    | 'members'
    | 'activity'
    | 'admin-kyb';
  labelKey: string;
  icon: SvgIconComponent;
  /** Where the item leads, given the current organization id. */
  to: (organizationId: string | undefined) => string;
  /** Paths that highlight the item. */
  matches: (pathname: string) => boolean;
  /** Shown only to platform administrators (`is_platform_admin` of the user profile). */
  platformAdminOnly?: boolean;
  /** Shown only to admins of the current organization (the API refuses members there). */
  organizationAdminOnly?: boolean;
}

const under = (prefix: string) => (pathname: string) => pathname === prefix || pathname.startsWith(`${prefix}/`);

export const NAV_ITEMS: NavItem[] = [
  {
    key: 'credentials',
    labelKey: 'nav.credentials',
    icon: WorkspacePremiumOutlined,
    to: (id) => (id ? `/credentials/${id}` : '/credentials'),
    matches: under('/credentials'),
  },
  { key: 'schemas', labelKey: 'nav.schemas', icon: SchemaOutlined, to: () => '/schemas', matches: under('/schemas') },
  {
    key: 'verifications',
    labelKey: 'nav.verifications',
    icon: FactCheckOutlined,
    to: () => '/verifications',
    matches: under('/verifications'),
  },
  {
    // The certificate authorities and trusted lists the "Issuers certified by my trust anchors" policy reads.
    key: 'trust-anchors',
    labelKey: 'trustAnchors.nav',
    icon: AccountTreeOutlined,
    to: () => '/trust-anchors',
    matches: under('/trust-anchors'),
    organizationAdminOnly: true,
  },
  {
    // The wallet providers whose wallet and key attestations the organization's issuer trusts.
    key: 'wallet-providers',
    labelKey: 'walletProviders.nav',
    icon: VerifiedUserOutlined,
    to: () => '/wallet-providers',
    matches: under('/wallet-providers'),
    organizationAdminOnly: true,
  },
  {
    key: 'integrations',
    labelKey: 'nav.integrations',
    icon: IntegrationInstructionsOutlined,
    to: () => '/integrations',
    matches: under('/integrations'),
    organizationAdminOnly: true,
  },
  {
    key: 'organization',
    labelKey: 'nav.organization',
    icon: BusinessOutlined,
    to: (id) => (id ? `/organization/${id}` : '/organization'),
    matches: under('/organization'),
  },
  {
    // Everyone sees the team; admins manage it.
    key: 'members',
    labelKey: 'members.nav',
    icon: GroupOutlined,
    to: () => '/members',
    matches: under('/members'),
  },
  {
    // Who changed what in the organization (the activity log).
    key: 'activity',
    labelKey: 'activity.nav',
    icon: HistoryOutlined,
    to: () => '/activity',
    matches: under('/activity'),
    organizationAdminOnly: true,
  },
  {
    key: 'admin-kyb',
    labelKey: 'kyb.nav',
    icon: GppGoodOutlined,
    to: () => '/admin/kyb',
    matches: under('/admin/kyb'),
    platformAdminOnly: true,
  },
];
