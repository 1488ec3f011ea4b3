import { ActionIcon, Checkbox, Group, Select, Stack, Text, TextInput, Tooltip } from '@mantine/core';
import { IconCircleCheck, IconCircleDashed, IconPlus } from '@tabler/icons-react';
import type { TaskStatus } from '@vigil/contract';
import { taskStatuses } from '@vigil/contract/client';
import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from '../../../lib/i18n';
import { fieldError, FormError } from '../../../components/form';
import { formatDate } from '../../../lib/dates';
import { addTask, updateTask, type IncidentDetail, type IncidentTask, type TaskUpdate } from '../api/incidents';
import { useAssignableUsers, useIncidentRefresh, userName } from '../api/hooks';
import { AssigneeSelect } from './assignee-select';

const TITLE_MAX = 300;

function TaskRow({ incident, task, editable }: { incident: IncidentDetail; task: IncidentTask; editable: boolean }) {
  const { t } = useTranslation();
  const refresh = useIncidentRefresh(incident.id);
  const { byId } = useAssignableUsers();
  const change = useMutation({
    mutationFn: (patch: TaskUpdate) => updateTask(incident.id, task.id, patch),
    onSuccess: () => refresh(),
  });
  const done = task.status === 'done';
  const assignee = task.assigneeId === null ? null : byId.get(task.assigneeId);

  return (
    <li className="vigil-incident-task" data-status={task.status} data-testid="incident-task">
      <Group gap="sm" wrap="nowrap" align="flex-start">
        {editable ? (
          <Checkbox
            mt={2}
            checked={done}
            disabled={change.isPending}
            onChange={(event) => change.mutate({ status: event.currentTarget.checked ? 'done' : 'todo' })}
            aria-label={t(done ? 'incidents.tasks.reopen' : 'incidents.tasks.checkOff', { title: task.title })}
            data-testid="task-done"
          />
        ) : done ? (
          <IconCircleCheck size={20} color="var(--vigil-status-green)" aria-hidden />
        ) : (
          <IconCircleDashed size={20} color="var(--vigil-text-disabled)" aria-hidden />
        )}
        <Stack gap={4} style={{ flex: 1, minWidth: 0 }}>
          <Text
            size="sm"
            className="vigil-incident-task__title"
            td={done ? 'line-through' : undefined}
            c={done ? 'dimmed' : undefined}
          >
            {task.title}
          </Text>
          {editable ? (
            <Group gap="xs" wrap="nowrap">
              <Select
                size="xs"
                w={136}
                style={{ flexShrink: 0 }}
                aria-label={t('incidents.tasks.status')}
                data={taskStatuses.map((status) => ({ value: status, label: t(`triage.taskStatus.${status}`) }))}
                value={task.status}
                allowDeselect={false}
                onChange={(value) => value && value !== task.status && change.mutate({ status: value as TaskStatus })}
                data-testid="task-status"
              />
              <AssigneeSelect
                size="xs"
                style={{ flex: 1, minWidth: 0 }}
                aria-label={t('incidents.tasks.assignee')}
                companyId={incident.companyId}
                value={task.assigneeId}
                onChange={(value) => value !== task.assigneeId && change.mutate({ assigneeId: value })}
              />
            </Group>
          ) : (
            <Text size="xs" c="dimmed">
              {t(`triage.taskStatus.${task.status}`)} · {assignee ? userName(assignee) : t('triage.unassigned')}
            </Text>
          )}
          {task.dueAt && (
            <Text size="xs" c="dimmed">
              {t('incidents.tasks.due', { date: formatDate(task.dueAt, 'isoDateTime') })}
            </Text>
          )}
          <FormError error={change.error} />
        </Stack>
      </Group>
    </li>
  );
}

function AddTask({ incident }: { incident: IncidentDetail }) {
  const { t } = useTranslation();
  const refresh = useIncidentRefresh(incident.id);
  const [title, setTitle] = useState('');
  const [assigneeId, setAssigneeId] = useState<number | null>(null);
  const add = useMutation({
    mutationFn: () =>
      addTask(incident.id, { title: title.trim(), assigneeId }, { shownFields: ['title', 'assigneeId'] }),
    onSuccess: async () => {
      setTitle('');
      setAssigneeId(null);
      await refresh();
    },
  });
  return (
    <form
      onSubmit={(event) => {
        event.preventDefault();
        if (title.trim()) add.mutate();
      }}
    >
      <Stack gap="xs">
        <Group gap="xs" wrap="nowrap" align="flex-start">
          <TextInput
            style={{ flex: 1 }}
            size="sm"
            placeholder={t('incidents.tasks.newPlaceholder')}
            aria-label={t('incidents.tasks.new')}
            maxLength={TITLE_MAX}
            value={title}
            onChange={(event) => setTitle(event.currentTarget.value)}
            error={fieldError(add.error, 'title')}
            data-testid="task-title"
          />
          <Tooltip label={t('incidents.tasks.add')} withArrow>
            <ActionIcon
              type="submit"
              size={36}
              variant="filled"
              loading={add.isPending}
              disabled={!title.trim()}
              aria-label={t('incidents.tasks.add')}
              data-testid="task-add"
            >
              <IconPlus size={18} />
            </ActionIcon>
          </Tooltip>
        </Group>
        {title.trim() && (
          <AssigneeSelect
            size="xs"
            label={t('incidents.tasks.assignee')}
            companyId={incident.companyId}
            value={assigneeId}
            onChange={setAssigneeId}
            error={fieldError(add.error, 'assigneeId')}
          />
        )}
        <FormError error={add.error} shownFields={['title', 'assigneeId']} />
      </Stack>
    </form>
  );
}

/** The incident's tasks: check them off, change their status or assignee, add new ones. */
export function TasksPanel({ incident, editable }: { incident: IncidentDetail; editable: boolean }) {
  const { t } = useTranslation();
  const done = incident.tasks.filter((task) => task.status === 'done').length;
  return (
    <Stack gap="sm" data-testid="incident-tasks">
      <Text size="xs" c="dimmed">
        {incident.tasks.length > 0
          ? t('incidents.tasks.progress', { done, total: incident.tasks.length })
          : t('incidents.tasks.none')}
      </Text>
      {incident.tasks.length > 0 && (
        <ul className="vigil-incident-tasks">
          {incident.tasks.map((task) => (
            <TaskRow key={task.id} incident={incident} task={task} editable={editable} />
          ))}
        </ul>
      )}
      {editable && <AddTask incident={incident} />}
    </Stack>
  );
}
