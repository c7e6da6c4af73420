// The member-experience fixes as a member meets them, each shown in Chromium against the real stack.
import {
  confirmByMail,
  joinThroughApi,
  joinThroughLink,
  newEmail,
  referralLinkOf,
  saveAndConfirmPhrase,
} from '../fixtures/member';
import { expect, test } from '../fixtures/test';

const PASSWORD = 'Kind-Hearts-77';

test('greetings use the name the member gave: never "User User" after a referral link, never "User" after typing a username', async ({
  page,
  request,
}) => {
  test.setTimeout(180_000);
  const referrer = newEmail('greeter');
  await joinThroughApi(page, { email: referrer, password: PASSWORD });
  await expect(page.getByRole('heading', { name: 'Hello, Ada Lovelace' })).toBeVisible();
  const link = await referralLinkOf(page);
  await page.getByRole('button', { name: 'Logout' }).click();

  // Through the referral link, no name typed: the e-mail's local part.
  const friend = newEmail('friend');
  await joinThroughLink(page, request, link, friend, PASSWORD);
  const local = friend.split('@')[0]!;
  await expect(page.getByRole('heading', { name: `Hello, ${local}` })).toBeVisible();
  await page.goto('/rcb');
  await expect(
    page.getByRole('heading', { name: `Hi ${local}, grow your community` }),
  ).toBeVisible();
  await page.goto('/dashboard');
  await page.getByRole('button', { name: 'Logout' }).click();

  // From the start page with a first name (the one sign-up form asks for no username).
  const neighbour = newEmail('neighbour');
  await page.goto('/signup');
  await page.getByLabel('Email').fill(neighbour);
  await page.getByLabel('First name').fill('Kindly');
  await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
  await page.getByLabel('Confirm password', { exact: true }).fill(PASSWORD);
  await page.getByRole('button', { name: 'Create account' }).click();
  await saveAndConfirmPhrase(page);
  await confirmByMail(page, request, neighbour);
  await expect(page.getByRole('heading', { name: 'Hello, Kindly' })).toBeVisible();
});

test('the dashboard header keeps its buttons small and on one row on a cold load, whatever stylesheet came first', async ({
  page,
}) => {
  test.setTimeout(120_000);
  await page.setViewportSize({ width: 1280, height: 900 });
  const email = newEmail('header');
  await joinThroughApi(page, { email, password: PASSWORD }); // a cold load of the dashboard
  await expect(page.getByRole('heading', { name: /^Hello/ })).toBeVisible();
  for (const load of ['on the first load', 'after a reload'] as const) {
    if (load === 'after a reload') await page.reload();
    await expect(page.getByRole('heading', { name: /^Hello/ })).toBeVisible();
    const logout = (await page.getByRole('button', { name: 'Logout' }).boundingBox())!;
    const account = (await page.getByRole('link', { name: 'Account' }).boundingBox())!;
    expect(logout.width, `Logout's width ${load}`).toBeLessThan(200);
    expect(account.width, `Account's width ${load}`).toBeLessThan(200);
    expect(Math.abs(logout.y - account.y), `one row ${load}`).toBeLessThan(4);
    expect(logout.height).toBeLessThan(46);
  }
});
