import { useMemo } from 'react';
import { renderMarkdown } from './markdown';
import './markdown-view.css';

/** Markdown written by users (comments, descriptions), rendered and sanitised. */
export function MarkdownView({ source, className }: { source: string; className?: string }) {
  const html = useMemo(() => renderMarkdown(source), [source]);
  return (
    <div
      className={`vigil-markdown${className ? ` ${className}` : ''}`}
      // The HTML comes from renderMarkdown, which sanitises it with DOMPurify.
      dangerouslySetInnerHTML={{ __html: html }}
    />
  );
}
