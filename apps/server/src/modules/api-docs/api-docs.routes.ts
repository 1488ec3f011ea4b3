import { endpoints } from '@vigil/contract';
import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../../app-deps';
import { route } from '../../http/endpoints';
import { buildOpenApi } from './openapi';
import { renderReferencePage } from './reference-page';

/** The API reference: the OpenAPI document and a readable page of it, both built once from the declarations. */
export async function registerApiDocs(app: FastifyInstance, deps: AppDeps): Promise<void> {
  let built: { document: ReturnType<typeof buildOpenApi>; page: string } | null = null;
  const reference = () => {
    if (!built) {
      const document = buildOpenApi(deps.version);
      built = { document, page: renderReferencePage(document) };
    }
    return built;
  };
  route(app, endpoints.docs.openapi, async () => reference().document as unknown as Record<string, unknown>);
  route(app, endpoints.docs.page, async ({ reply }) =>
    reply
      .type('text/html; charset=utf-8')
      .header('content-security-policy', "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'")
      .send(reference().page),
  );
}
