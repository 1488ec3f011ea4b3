/** Endpoints of the matchers area (filled as its routes move onto declarations). */
export const matcherEndpoints = {};
