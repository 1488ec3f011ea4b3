/** English texts of the `incidents` namespace (see ../en.ts). */
export const incidents = {
  title: 'Incidents',
};
