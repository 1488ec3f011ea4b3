/** Endpoints of the audit area (filled as its routes move onto declarations). */
export const auditEndpoints = {};
