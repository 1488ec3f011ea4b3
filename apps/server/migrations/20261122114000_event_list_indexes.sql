-- The primary keys (company_id, ts, id) already serve the list pages' order (ts DESC, id DESC),
-- read backwards; the separate list indexes only cost every insert another b-tree.
DROP INDEX network_events_list;
DROP INDEX endpoint_events_list;
DROP INDEX mail_messages_list;
DROP INDEX mail_attachments_list;
