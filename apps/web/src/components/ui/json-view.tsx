import { Box, ScrollArea } from '@mantine/core';
import { memo, useMemo } from 'react';
import type { SyntaxColor } from '../../lib/theme';
import { CopyAction } from './copy-field';

/** One coloured piece of pretty-printed JSON. `kind` null is plain whitespace/newlines. */
export interface JsonToken {
  text: string;
  kind: SyntaxColor | null;
}

/**
 * Pretty-prints a JSON value as tokens (2-space indent, like `JSON.stringify(value, null, 2)`), each tagged with the
 * syntax colour it is painted with. Values JSON cannot hold (undefined, functions) print as `null`.
 */
export function jsonTokens(value: unknown): JsonToken[] {
  const tokens: JsonToken[] = [];
  const push = (text: string, kind: SyntaxColor | null) => tokens.push({ text, kind });
  const walk = (node: unknown, depth: number) => {
    const pad = '  '.repeat(depth + 1);
    const closePad = '  '.repeat(depth);
    if (node === null || node === undefined || typeof node === 'function' || typeof node === 'symbol') {
      push('null', 'keyword');
    } else if (typeof node === 'string') {
      push(JSON.stringify(node), 'string');
    } else if (typeof node === 'number') {
      push(Number.isFinite(node) ? String(node) : 'null', Number.isFinite(node) ? 'number' : 'keyword');
    } else if (typeof node === 'bigint') {
      push(node.toString(), 'number');
    } else if (typeof node === 'boolean') {
      push(String(node), 'keyword');
    } else if (Array.isArray(node)) {
      if (node.length === 0) {
        push('[]', 'punctuation');
        return;
      }
      push('[', 'punctuation');
      node.forEach((item, index) => {
        push(`\n${pad}`, null);
        walk(item, depth + 1);
        if (index < node.length - 1) push(',', 'punctuation');
      });
      push(`\n${closePad}`, null);
      push(']', 'punctuation');
    } else {
      const entries = Object.entries(node as Record<string, unknown>).filter(
        ([, item]) => item !== undefined && typeof item !== 'function',
      );
      if (entries.length === 0) {
        push('{}', 'punctuation');
        return;
      }
      push('{', 'punctuation');
      entries.forEach(([key, item], index) => {
        push(`\n${pad}`, null);
        push(JSON.stringify(key), 'property');
        push(': ', 'punctuation');
        walk(item, depth + 1);
        if (index < entries.length - 1) push(',', 'punctuation');
      });
      push(`\n${closePad}`, null);
      push('}', 'punctuation');
    }
  };
  walk(value, 0);
  return tokens;
}

/**
 * A JSON value pretty-printed with theme syntax colours (`--vigil-syntax-*`), as React text nodes (never raw HTML),
 * with a button that copies the JSON text.
 */
export const JsonView = memo(function JsonView({
  value,
  maxHeight = 480,
  testId,
}: {
  value: unknown;
  /** Height in px above which the view scrolls. */
  maxHeight?: number;
  testId?: string;
}) {
  const tokens = useMemo(() => jsonTokens(value), [value]);
  const text = useMemo(() => tokens.map((token) => token.text).join(''), [tokens]);
  return (
    <Box
      pos="relative"
      data-testid={testId}
      style={{
        background: 'var(--vigil-surface-2)',
        border: '1px solid var(--vigil-border)',
        borderRadius: 'var(--mantine-radius-md)',
      }}
    >
      <CopyAction value={text} pos="absolute" top={6} right={6} style={{ zIndex: 1 }} />
      <ScrollArea.Autosize mah={maxHeight} type="auto" offsetScrollbars>
        <Box
          component="pre"
          m={0}
          p="sm"
          pr={40}
          style={{
            fontFamily: 'var(--vigil-font-family-mono)',
            fontSize: 12,
            lineHeight: '18px',
            color: 'var(--vigil-syntax-variable)',
            whiteSpace: 'pre',
          }}
        >
          {tokens.map((token, index) =>
            token.kind === null ? (
              token.text
            ) : (
              <span key={index} style={{ color: `var(--vigil-syntax-${token.kind})` }}>
                {token.text}
              </span>
            ),
          )}
        </Box>
      </ScrollArea.Autosize>
    </Box>
  );
});
