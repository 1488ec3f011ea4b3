import type { OpenApiDocument } from './openapi';

type Json = Record<string, unknown>;

const escapes: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => escapes[c]!);
/** `code` spans for the backquoted parts of a description. */
const prose = (text: string) => escapeHtml(text).replace(/`([^`]+)`/g, '<code>$1</code>');

function schemaBlock(label: string, schema: unknown): string {
  return `<details><summary>${escapeHtml(label)}</summary><pre>${escapeHtml(JSON.stringify(schema, null, 2))}</pre></details>`;
}

function parameterRows(parameters: Json[]): string {
  if (parameters.length === 0) return '';
  const rows = parameters
    .map((p) => {
      const schema = (p.schema ?? {}) as Json;
      const type = typeof schema.type === 'string' ? schema.type : schema.anyOf ? 'one of several' : 'any';
      return `<tr><td><code>${escapeHtml(String(p.name))}</code></td><td>${escapeHtml(String(p.in))}</td><td>${escapeHtml(type)}</td><td>${p.required ? 'required' : ''}</td></tr>`;
    })
    .join('');
  return `<table><thead><tr><th>Parameter</th><th>In</th><th>Type</th><th></th></tr></thead><tbody>${rows}</tbody></table>`;
}

function accessText(operation: Json): string {
  const permission = operation['x-permission'] as { basename: string; action: string } | undefined;
  if (permission) return `Permission <code>${escapeHtml(permission.basename)}</code>: ${escapeHtml(permission.action)}`;
  const security = operation.security as unknown[] | undefined;
  if (security && security.length > 0) return 'Ingest key';
  if (security) return 'Open to all';
  return 'Any signed-in user';
}

/** When a half-signed-in session may call the operation too. */
function reducedAppText(operation: Json): string {
  if (operation['x-before-two-factor']) return '; also before two-factor sign-in and while the password is expired';
  if (operation['x-while-password-expired']) return '; also while the password is expired';
  return '';
}

function operationSection(path: string, method: string, operation: Json): string {
  const id = escapeHtml(String(operation.operationId));
  const body = operation.requestBody as Json | undefined;
  const bodyContent = (body?.content ?? {}) as Record<string, { schema?: unknown }>;
  const responses = (operation.responses ?? {}) as Record<string, Json>;
  const answers = Object.entries(responses)
    .map(([status, response]) => {
      const content = (response.content ?? {}) as Record<string, { schema?: unknown }>;
      const types = Object.keys(content);
      const label = `${status} — ${String(response.description ?? '')}${types.length ? ` (${types.join(', ')})` : ''}`;
      const json = content['application/json'];
      return json ? schemaBlock(label, json.schema) : `<p class="answer">${escapeHtml(label)}</p>`;
    })
    .join('');
  return `<section class="op" id="${id}">
<h3><span class="method ${method}">${method.toUpperCase()}</span> <code>${escapeHtml(path)}</code></h3>
<p class="summary">${prose(String(operation.summary ?? ''))}</p>
${operation.description ? `<p>${prose(String(operation.description))}</p>` : ''}
<p class="access">${accessText(operation)}${reducedAppText(operation)}</p>
${parameterRows((operation.parameters ?? []) as Json[])}
${Object.entries(bodyContent)
  .map(([type, media]) => schemaBlock(`Body (${type})`, media.schema ?? { type: 'string' }))
  .join('')}
<h4>Answers</h4>${answers}
</section>`;
}

/** A self-contained, readable page of the whole reference (no scripts, nothing loaded from elsewhere). */
export function renderReferencePage(document: OpenApiDocument): string {
  const byTag = new Map<string, string[]>();
  for (const [path, operations] of Object.entries(document.paths)) {
    for (const [method, operation] of Object.entries(operations)) {
      const tag = ((operation.tags as string[] | undefined) ?? ['other'])[0]!;
      const list = byTag.get(tag) ?? [];
      list.push(operationSection(path, method, operation));
      byTag.set(tag, list);
    }
  }
  const tags = [...byTag.keys()].sort();
  const nav = tags.map((tag) => `<li><a href="#tag-${escapeHtml(tag)}">${escapeHtml(tag)}</a></li>`).join('');
  const sections = tags
    .map((tag) => `<h2 id="tag-${escapeHtml(tag)}">${escapeHtml(tag)}</h2>${byTag.get(tag)!.join('')}`)
    .join('');
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(document.info.title)} ${escapeHtml(document.info.version)} — reference</title>
<style>
body{font:15px/1.5 system-ui,sans-serif;margin:0;display:flex;color:#1a1b1e;background:#fff}
nav{position:sticky;top:0;height:100vh;overflow:auto;min-width:14rem;padding:1rem;background:#f4f5f7;box-sizing:border-box}
nav ul{list-style:none;padding:0;margin:0} nav li{margin:.2rem 0} nav a{color:#1c4ed8;text-decoration:none}
main{padding:1rem 2rem;max-width:70rem;flex:1} h2{border-bottom:1px solid #ddd;padding-bottom:.3rem;margin-top:2rem}
.op{border:1px solid #e3e5e8;border-radius:6px;padding:.5rem 1rem;margin:1rem 0}
.op h3{margin:.3rem 0;font-size:1rem} .method{display:inline-block;min-width:4rem;text-align:center;border-radius:4px;color:#fff;font-size:.8rem;padding:.1rem .4rem}
.get{background:#2f9e44}.post{background:#1c7ed6}.put{background:#f08c00}.patch{background:#ae3ec9}.delete{background:#e03131}
.access{color:#555;font-size:.9rem} table{border-collapse:collapse;margin:.5rem 0} td,th{border:1px solid #e3e5e8;padding:.2rem .6rem;text-align:left;font-size:.9rem}
pre{background:#f8f9fa;padding:.5rem;overflow:auto;font-size:.8rem;max-height:30rem} summary{cursor:pointer;margin:.2rem 0}
code{font-family:ui-monospace,monospace;font-size:.9em} .answer{margin:.2rem 0}
@media (prefers-color-scheme: dark){body{background:#1a1b1e;color:#e9ecef}nav{background:#25262b}nav a{color:#74c0fc}.op{border-color:#373a40}pre{background:#25262b}td,th{border-color:#373a40}.access{color:#adb5bd}}
</style></head>
<body><nav><strong>${escapeHtml(document.info.title)}</strong><p><a href="/api/openapi.json">openapi.json</a></p><ul>${nav}</ul></nav>
<main><h1>${escapeHtml(document.info.title)} <small>${escapeHtml(document.info.version)}</small></h1>
<p>${prose(document.info.description)}</p>${sections}</main></body></html>`;
}
