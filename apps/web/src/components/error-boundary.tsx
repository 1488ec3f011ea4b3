import { Component, type ErrorInfo, type ReactNode } from 'react';

/** Whether an error is a failed download of a code chunk (after a deploy, or offline). */
export function isChunkLoadError(error: unknown): boolean {
  return (
    error instanceof Error &&
    /Failed to fetch dynamically imported module|Importing a module script failed|error loading dynamically imported module/i.test(
      error.message,
    )
  );
}

interface Props {
  children: ReactNode;
  /** Texts, translated by the caller (the boundary also guards the i18n set-up). */
  texts: { chunkTitle: string; chunkMessage: string; errorTitle: string; errorMessage: string; reload: string };
}

/**
 * Catches what a page throws while rendering: a chunk that failed to download gets a reload
 * button (the failure is handled, not rethrown), anything else a short apology instead of a blank window. Plain
 * elements, so it works in both applications, with or without Mantine.
 */
export class ErrorBoundary extends Component<Props, { error: unknown }> {
  override state: { error: unknown } = { error: null };

  static getDerivedStateFromError(error: unknown) {
    return { error };
  }

  override componentDidCatch(error: unknown, info: ErrorInfo) {
    console.error('The console failed to render', error, info.componentStack);
  }

  override render() {
    if (this.state.error === null) return this.props.children;
    const chunk = isChunkLoadError(this.state.error);
    const { texts } = this.props;
    return (
      <div className="vigil-message-page" role="alert">
        <h1 className="vigil-text vigil-text--h2">{chunk ? texts.chunkTitle : texts.errorTitle}</h1>
        <p className="vigil-text vigil-text--body1 vigil-text--medium">
          {chunk ? texts.chunkMessage : texts.errorMessage}
        </p>
        <button type="button" className="vigil-button vigil-button--primary" onClick={() => window.location.reload()}>
          {texts.reload}
        </button>
      </div>
    );
  }
}
