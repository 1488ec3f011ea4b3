import { Button } from '@mantine/core';
import { IconChartDots3 } from '@tabler/icons-react';
import { Link } from '../../lib/router';
import { graphUrl } from './pivots';

/** The way from an alert's or an incident's page to its investigation graph. */
export function GraphButton({
  of,
  label,
  testId,
}: {
  of: Parameters<typeof graphUrl>[0];
  label: string;
  testId?: string;
}) {
  return (
    <Button
      component={Link}
      to={graphUrl(of)}
      variant="default"
      leftSection={<IconChartDots3 size={16} />}
      data-testid={testId}
    >
      {label}
    </Button>
  );
}
