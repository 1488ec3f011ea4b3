-- The audit log is filtered by action within a time range far more than by anything else
-- ("every sign-in of the last 30 days"): indexes that serve the count and the page of that
-- query for one company, and for staff who see all companies.
CREATE INDEX system_logs_company_action_time_idx ON system_logs (company_id, action, date_time DESC);
CREATE INDEX system_logs_action_time_idx ON system_logs (action, date_time DESC);
