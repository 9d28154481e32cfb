import { Component, type ReactNode, Suspense } from 'react';
import { ErrorNotice } from './RouteError';

interface State {
  failed: boolean;
  error: unknown;
}

/**
 * One part of a page that a plugin contributes (a dashboard widget, a chart group, a member tab), shown with
 * `fallback` while its code loads. When its code cannot be loaded or it fails to render, the kernel's notice takes its
 * place and the rest of the page stays usable. A part's code gone after a new deploy reloads the tab once, as a
 * page's does.
 */
export class PartBoundary extends Component<{ fallback: ReactNode; children: ReactNode }, State> {
  override state: State = { failed: false, error: null };

  static getDerivedStateFromError(error: unknown): State {
    return { failed: true, error };
  }

  override render() {
    if (this.state.failed) return <ErrorNotice error={this.state.error} message="app.partError" testId="part-error" />;
    return <Suspense fallback={this.props.fallback}>{this.props.children}</Suspense>;
  }
}
