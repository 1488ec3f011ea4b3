/** Endpoints of the ingest area (filled as its routes move onto declarations). */
export const ingestEndpoints = {};
