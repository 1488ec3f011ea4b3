import './rule-source.css';
import { memo, useMemo } from 'react';
import { highlightRule, type RuleLanguage } from '../../lib/rule-syntax/rule-syntax';

/**
 * A rule's text with line numbers, coloured in the theme's syntax colours (`--vigil-syntax-*`) as React
 * text nodes (never raw HTML). Long lines wrap; the numbers stay beside the line they start.
 */
export const RuleSource = memo(function RuleSource({
  language,
  source,
  maxHeight,
  testId,
}: {
  language: RuleLanguage;
  source: string;
  /** Taller texts scroll inside the frame (px); the whole text when left out. */
  maxHeight?: number;
  testId?: string;
}) {
  const lines = useMemo(() => highlightRule(language, source), [language, source]);
  return (
    <div
      className="vigil-rule-source"
      style={maxHeight ? { maxHeight } : undefined}
      data-testid={testId}
      data-language={language}
      tabIndex={0}
    >
      <pre>
        {lines.map((tokens, index) => (
          <span key={index} className="vigil-rule-source__line">
            <span className="vigil-rule-source__number" aria-hidden="true">
              {index + 1}
            </span>
            <code>
              {tokens.length === 0
                ? '\u200b'
                : tokens.map((token, at) =>
                    token.kind === null ? (
                      token.text
                    ) : (
                      <span
                        key={at}
                        className="vigil-syntax"
                        data-kind={token.kind}
                        style={{ color: `var(--vigil-syntax-${token.kind})` }}
                      >
                        {token.text}
                      </span>
                    ),
                  )}
            </code>
          </span>
        ))}
      </pre>
    </div>
  );
});
