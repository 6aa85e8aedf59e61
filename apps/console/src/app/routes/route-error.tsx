import { Component, type ReactNode } from 'react';
import { Navigate, useLocation } from 'react-router';
import { NotFoundPage } from '../../components/not-found-page.tsx';
import { ServerErrorPage } from '../../components/server-error-page.tsx';
import { isApiError } from '../../lib/api-error.ts';
import { isSigningOut } from '../../lib/signing-out.ts';

/** Route errors (spec §2): 401 → /intro, 404 → not found, anything else → the 500 page. */
export function RouteError({ error }: { error: unknown }) {
  const status = isApiError(error) ? error.status : null;
  // A sign-out in this tab navigates by itself (lib/signing-out.ts).
  if (status === 401) return isSigningOut() ? <div data-testid="guard-blank" /> : <Navigate to="/intro" replace />;
  if (status === 404) return <NotFoundPage />;
  return <ServerErrorPage error={error} />;
}

interface BoundaryProps {
  pathname: string;
  children: ReactNode;
}
interface BoundaryState {
  error: unknown;
  hasError: boolean;
  pathname: string;
}

class PathErrorBoundary extends Component<BoundaryProps, BoundaryState> {
  override state: BoundaryState = { error: null, hasError: false, pathname: this.props.pathname };

  static getDerivedStateFromError(error: unknown): Partial<BoundaryState> {
    return { error, hasError: true };
  }

  /** Another URL gets a fresh try, as a route's error element is left on navigation. */
  static getDerivedStateFromProps(props: BoundaryProps, state: BoundaryState): Partial<BoundaryState> | null {
    return props.pathname === state.pathname ? null : { error: null, hasError: false, pathname: props.pathname };
  }

  override render() {
    return this.state.hasError ? <RouteError error={this.state.error} /> : this.props.children;
  }
}

/** Catches what a route (its code loading included) throws while rendering and shows `RouteError` in its place. */
export function RouteErrorBoundary({ children }: { children: ReactNode }) {
  const { pathname } = useLocation();
  return <PathErrorBoundary pathname={pathname}>{children}</PathErrorBoundary>;
}
