import BusinessOutlined from '@mui/icons-material/BusinessOutlined';
import PersonOutline from '@mui/icons-material/PersonOutlineOutlined';
import Verified from '@mui/icons-material/Verified';
import Avatar from '@mui/material/Avatar';
import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import { lazy, Suspense } from 'react';

// The small picture over the avatar is seldom asked for (no screen of the console does): MUI's Badge comes with the
// first one, not with every page that shows an account (issue 16).
const Badge = lazy(() => import('@mui/material/Badge'));

export type AccountType = 'users' | 'organizations';

export interface AccountBadge {
  image: string;
  color?: string;
  width?: number;
  height?: number;
}

export interface AccountDisplayProps {
  /** Picture address; the default person or organization icon shows when absent. */
  img?: string | null;
  type: AccountType;
  name: string;
  username?: string | null;
  isVerified?: boolean;
  badge?: AccountBadge;
  /** `card` is the compact variant used in menus and account cards (40px avatar). */
  variant?: 'default' | 'card';
  /** Avatar size as a CSS length; defaults to 3rem (40px in the card variant). */
  avatarSize?: string;
  verifiedLabel?: string;
}

export function AccountDisplay({
  img,
  type,
  name,
  username,
  isVerified = false,
  badge,
  variant = 'default',
  avatarSize,
  verifiedLabel = 'Verified',
}: AccountDisplayProps) {
  const size = avatarSize ?? (variant === 'card' ? '40px' : '3rem');
  const DefaultIcon = type === 'users' ? PersonOutline : BusinessOutlined;
  const avatar = (
    <Avatar
      src={img ?? undefined}
      alt={name}
      variant={type === 'users' ? 'circular' : 'rounded'}
      sx={{
        width: size,
        height: size,
        bgcolor: 'primary.50',
        color: 'primary.main',
        border: 1,
        borderColor: 'grey.200',
      }}
    >
      <DefaultIcon sx={{ fontSize: 24 }} data-testid={`default-${type === 'users' ? 'user' : 'organization'}-icon`} />
    </Avatar>
  );
  return (
    <Box sx={{ display: 'flex', alignItems: 'center', minWidth: 0, gap: variant === 'card' ? 1.5 : 2 }}>
      {badge ? (
        <Suspense fallback={avatar}>
          <Badge
            overlap={type === 'users' ? 'circular' : 'rectangular'}
            anchorOrigin={{ vertical: 'bottom', horizontal: 'right' }}
            badgeContent={
              <Box
                component="img"
                src={badge.image}
                alt=""
                sx={{
                  width: badge.width ?? 16,
                  height: badge.height ?? 16,
                  borderRadius: '50%',
                  bgcolor: badge.color ?? 'common.white',
                  border: 1,
                  borderColor: 'common.white',
                }}
              />
            }
          >
            {avatar}
          </Badge>
        </Suspense>
      ) : (
        avatar
      )}
      <Box sx={{ minWidth: 0, flex: 1 }}>
        <Box sx={{ display: 'flex', alignItems: 'center', gap: 0.5, minWidth: 0 }}>
          <Typography variant="subtitle2" component="span" noWrap sx={{ color: 'text.primary' }}>
            {name}
          </Typography>
          {isVerified && (
            <Verified sx={{ fontSize: 20, color: 'primary.main', flexShrink: 0 }} titleAccess={verifiedLabel} />
          )}
        </Box>
        {username && (
          <Typography variant="caption" component="span" noWrap sx={{ display: 'block', color: 'text.secondary' }}>
            {username}
          </Typography>
        )}
      </Box>
    </Box>
  );
}
