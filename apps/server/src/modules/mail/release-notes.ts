import fs from 'node:fs/promises';
import path from 'node:path';
import type { ChangelogVersion, MailData } from '@vigil/contract';
import { markdownToHtml, textToHtml } from './mail-content';

/** Release notes live in the repository, one Markdown file per version: docs/release-notes/<version>.md. */
export const releaseNotesDir = path.resolve(import.meta.dirname, '../../../../../docs/release-notes');

const fileName = /^(\d{1,4})\.(\d{1,4})\.(\d{1,4})(?:-([0-9A-Za-z.-]{1,30}))?\.md$/;

export interface ReleaseNote extends ChangelogVersion {
  /** The notes in Markdown, without the title line. */
  body: string;
}

/**
 * Reads one notes file: the first line is `# <title>`, an optional `Released: YYYY-MM-DD` line
 * follows, then the notes. Null when the file does not have a title.
 */
export function parseReleaseNote(version: string, source: string): ReleaseNote | null {
  const lines = source.replace(/\r\n?/g, '\n').split('\n');
  const first = lines.findIndex((line) => line.trim() !== '');
  const heading = /^#\s+(.+?)\s*#*\s*$/.exec(lines[first] ?? '');
  if (!heading?.[1]) return null;
  let rest = lines.slice(first + 1);
  let date: string | null = null;
  const next = rest.findIndex((line) => line.trim() !== '');
  const released = /^Released:\s*(\d{4}-\d{2}-\d{2})\s*$/.exec(rest[next] ?? '');
  if (released?.[1]) {
    date = released[1];
    rest = rest.slice(next + 1);
  }
  return { version, title: heading[1], date, body: rest.join('\n').trim() };
}

/** Orders versions as releases: by number, a pre-release before its release. */
export function compareVersions(a: string, b: string): number {
  const [coreA = '', preA] = a.split(/-(.*)/s);
  const [coreB = '', preB] = b.split(/-(.*)/s);
  const numbersA = coreA.split('.').map(Number);
  const numbersB = coreB.split('.').map(Number);
  for (let i = 0; i < 3; i += 1) {
    const difference = (numbersA[i] ?? 0) - (numbersB[i] ?? 0);
    if (difference !== 0) return difference;
  }
  if (preA === undefined || preB === undefined) return (preA === undefined ? 1 : 0) - (preB === undefined ? 1 : 0);
  return preA.localeCompare(preB, 'en', { numeric: true });
}

/** Every release with readable notes, newest first. A directory that is missing lists nothing. */
export async function listReleaseNotes(dir: string): Promise<ReleaseNote[]> {
  let files: string[];
  try {
    files = await fs.readdir(dir);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
  const notes: ReleaseNote[] = [];
  for (const file of files) {
    if (!fileName.test(file)) continue;
    const version = file.slice(0, -3);
    const note = parseReleaseNote(version, await fs.readFile(path.join(dir, file), 'utf8'));
    if (note) notes.push(note);
  }
  return notes.sort((a, b) => compareVersions(b.version, a.version));
}

/** The notes of one version, or null when there are none. */
export async function findReleaseNote(dir: string, version: string): Promise<ReleaseNote | null> {
  const notes = await listReleaseNotes(dir);
  return notes.find((note) => note.version === version) ?? null;
}

/**
 * The release-notes mail of a version, ready to review: a subject, the notes as text and as HTML,
 * and a closing line telling the reader how to stop receiving them.
 */
export function releaseNotesMail(note: ReleaseNote, productName: string): MailData {
  const heading = `${productName} ${note.version}${note.date ? ` (${note.date})` : ''}: ${note.title}`;
  const footer =
    `You receive this because you have an account on the ${productName} console. ` +
    'To stop receiving release notes, turn off "Release notes" in the mailing settings of your profile.';
  return {
    subject: `Release notes: ${productName} ${note.version}`,
    text: `${heading}\n\n${note.body}\n\n--\n${footer}\n`,
    html: [
      textToHtml(heading).replace(/^<p>(.*)<\/p>$/s, '<h1>$1</h1>'),
      markdownToHtml(note.body),
      '<hr>',
      textToHtml(footer)
        .replace(/^<p>/, '<p><small>')
        .replace(/<\/p>$/, '</small></p>'),
    ].join('\n'),
  };
}
