/**
 * The service's own addresses, built from SVC_PUBLIC_URL (or the bound address once it is known):
 * the spec's {webhook_url} and {bot_url}, the widget loader and the console.
 */
export class PublicUrls {
  private baseUrl = '';

  setBase(base: string): void {
    this.baseUrl = base.replace(/\/+$/, '');
  }

  get base(): string {
    return this.baseUrl;
  }

  /** spec {webhook_url}: Chat API endpoints live below it. */
  get webhookUrl(): string {
    return `${this.baseUrl}/chat-api`;
  }

  /** spec {bot_url}. */
  get botUrl(): string {
    return `${this.baseUrl}/bot`;
  }

  chatApiEndpoint(randomString: string, publicId: string): string {
    return `${this.webhookUrl}/${randomString}/${publicId}`;
  }

  widgetEmbed(publicId: string): string {
    return `<script async src="${this.baseUrl}/widget/loader.js" data-svc-widget="${publicId}"></script>`;
  }
}
