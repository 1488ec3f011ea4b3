import { sanitizeHtml } from './sanitize-html';

/** A notification message written in HTML, cleaned of anything but text markup and safe links. */
export default function HtmlMessage({ html }: { html: string }) {
  return <div className="vigil-notification__message" dangerouslySetInnerHTML={{ __html: sanitizeHtml(html) }} />;
}
