// The account page's notification choices: mails about credits and rounds, and "claim for me".
import { notificationSettingsResponse, type NotificationSettingsRequest } from '@crw/core';
import { queryOptions } from '@tanstack/react-query';
import { apiFetch } from '../../../lib/api-client';

export const notificationSettingsQuery = queryOptions({
  queryKey: ['account', 'notifications'],
  queryFn: () => apiFetch('/api/notifications/settings', notificationSettingsResponse),
});

export const saveNotificationSettings = (change: NotificationSettingsRequest) =>
  apiFetch('/api/notifications/settings', notificationSettingsResponse, {
    method: 'PUT',
    body: change,
  });
