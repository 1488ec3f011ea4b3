import './drop-zone.css';
import { Text, UnstyledButton } from '@mantine/core';
import { IconFileUpload } from '@tabler/icons-react';
import { useRef, useState, type DragEvent } from 'react';

/** A place to drop files, or click to choose them; `onFiles` gets what was dropped or chosen. */
export function DropZone({
  label,
  accept,
  multiple = false,
  onFiles,
  testId,
  inputTestId,
}: {
  label: string;
  /** The file picker's `accept`. */
  accept: string;
  multiple?: boolean;
  onFiles: (files: File[]) => void;
  testId?: string;
  inputTestId?: string;
}) {
  const input = useRef<HTMLInputElement>(null);
  const [dragging, setDragging] = useState(false);
  const onDrop = (event: DragEvent) => {
    event.preventDefault();
    setDragging(false);
    const files = [...event.dataTransfer.files];
    onFiles(multiple ? files : files.slice(0, 1));
  };
  return (
    <>
      <UnstyledButton
        className="vigil-drop"
        data-active={dragging || undefined}
        onClick={() => input.current?.click()}
        onDragOver={(event) => {
          event.preventDefault();
          setDragging(true);
        }}
        onDragLeave={() => setDragging(false)}
        onDrop={onDrop}
        data-testid={testId}
      >
        <IconFileUpload size={28} stroke={1.5} />
        <Text size="sm" className="vigil-drop__label">
          {label}
        </Text>
      </UnstyledButton>
      <input
        ref={input}
        type="file"
        accept={accept}
        multiple={multiple}
        hidden
        onChange={(event) => {
          onFiles([...(event.currentTarget.files ?? [])]);
          // The same file chosen again is news.
          event.currentTarget.value = '';
        }}
        data-testid={inputTestId}
      />
    </>
  );
}
