/** English texts of the `dashboard` namespace (see ../en.ts). */
export const dashboard = {
  title: 'Dashboard',
};
