import './panel.css';
import type { ReactNode } from 'react';
import { Surface } from './surface';

/** A titled panel of a detail page (the alert page, a rule's page): a raised surface with a small heading. */
export function Panel({
  title,
  children,
  testId,
  extra,
}: {
  title: ReactNode;
  children: ReactNode;
  testId?: string;
  /** At the heading's end (a count, a control of the panel). */
  extra?: ReactNode;
}) {
  return (
    <Surface level={1} className="vigil-panel">
      <section data-testid={testId}>
        <div className="vigil-panel__head">
          <h2 className="vigil-panel__title">{title}</h2>
          {extra}
        </div>
        {children}
      </section>
    </Surface>
  );
}
