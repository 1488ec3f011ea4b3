/** Endpoints of the graph area (filled as its routes move onto declarations). */
export const graphEndpoints = {};
