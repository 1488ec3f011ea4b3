/** Endpoints of the incidents area (filled as its routes move onto declarations). */
export const incidentEndpoints = {};
