import { palettes } from '../../../lib/theme';

/**
 * The policy of the document a mail's HTML is shown in: nothing may load from anywhere (no remote
 * images, styles, fonts, frames or connections); inline styles, inline (data:) images and images the
 * message carries itself (cid:) are allowed. Scripts are off twice: by this policy and by the frame's
 * empty sandbox.
 */
export const MAIL_CSP = "default-src 'none'; style-src 'unsafe-inline'; img-src data: cid:";

/** How the message pane looks: mail HTML is written for paper, so it is always the light paper. */
const paper = palettes.light;

/**
 * The `srcdoc` of the sandboxed frame a mail's HTML is shown in. The Content-Security-Policy meta is
 * the very first element, so the parser puts it in the head before anything of the message (a policy
 * the message itself declares later can only narrow it, and one in the body is ignored).
 */
export function mailSrcdoc(html: string): string {
  const head = [
    `<meta http-equiv="Content-Security-Policy" content="${MAIL_CSP}">`,
    '<meta charset="utf-8">',
    '<meta name="referrer" content="no-referrer">',
    `<style>html{color-scheme:light}body{margin:16px;font:14px/1.5 system-ui,sans-serif;` +
      `color:${paper.text.high};background:${paper.surface[0]};overflow-wrap:anywhere}` +
      `img{max-width:100%;height:auto}</style>`,
  ].join('');
  return `${head}${html}`;
}

/** Attributes and CSS that would load something from the network. */
const REMOTE = [
  /\b(?:src|background|poster|data|href|srcset|action|formaction)\s*=\s*["']?\s*(?:https?:)?\/\//i,
  /url\(\s*["']?\s*(?:https?:)?\/\//i,
  /@import\s+["']?\s*(?:url\()?\s*["']?(?:https?:)?\/\//i,
];

/**
 * Whether the HTML refers to remote images, styles or fonts (which the frame's policy blocks), to say
 * so above the message. Links (`<a href>`) are not content and do not count.
 */
export function hasRemoteContent(html: string): boolean {
  const withoutLinks = html.replace(/<a\b[^>]*>/gi, '<a>');
  return REMOTE.some((pattern) => pattern.test(withoutLinks));
}
