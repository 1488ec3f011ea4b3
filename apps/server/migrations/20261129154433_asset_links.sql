-- asset_links
-- Runs on PostgreSQL 15 and on embedded PGlite: keep to SQL both accept.
-- An asset's owner is an employee (of the asset's company; the assets module checks that), and an
-- employee that is deleted leaves the asset without an owner. Owners that name no employee of the
-- asset's company are taken away first.
UPDATE assets a SET owner_employee_id = NULL
WHERE a.owner_employee_id IS NOT NULL
  AND NOT EXISTS (SELECT 1 FROM employees e WHERE e.id = a.owner_employee_id AND e.company_id = a.company_id);
ALTER TABLE assets ADD CONSTRAINT assets_owner_employee_fk
  FOREIGN KEY (owner_employee_id) REFERENCES employees (id) ON DELETE SET NULL;
CREATE INDEX assets_owner ON assets (owner_employee_id) WHERE owner_employee_id IS NOT NULL;

-- The asset of an install is found when it is read: the asset of the company whose short host name
-- (the first label of its name, lower case) is the first label of the install's host. Kept in a
-- column, it went stale with every merge, split, rename and new asset; it was never written.
DROP INDEX software_installs_asset;
ALTER TABLE software_installs DROP COLUMN asset_id;
CREATE INDEX software_installs_host_label ON software_installs (company_id, (split_part(host_key, '.', 1)));
