import Box from '@mui/material/Box';
import { Outlet } from 'react-router';
import { BrandLogo } from '../../components/brand-logo.tsx';

/** Frame of the holder pages (/connect/*), reachable without signing in. */
export function PublicLayout() {
  return (
    <Box sx={{ minHeight: '100vh', display: 'flex', flexDirection: 'column' }}>
      <Box
        component="header"
        sx={{ px: { xs: 2, md: 4 }, py: 2, borderBottom: 1, borderColor: 'grey.200', bgcolor: 'background.paper' }}
      >
        <BrandLogo />
      </Box>
      <Box component="main" sx={{ flex: 1, width: '100%', maxWidth: 720, mx: 'auto', px: 2, py: { xs: 4, md: 8 } }}>
        <Outlet />
      </Box>
    </Box>
  );
}
