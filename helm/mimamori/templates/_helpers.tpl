{{/* The release's base name: the release name, or release-chart when they differ. */}}
{{- define "mimamori.fullname" -}}
{{- if contains .Chart.Name .Release.Name -}}
{{- .Release.Name | trunc 40 | trimSuffix "-" -}}
{{- else -}}
{{- printf "%s-%s" .Release.Name .Chart.Name | trunc 40 | trimSuffix "-" -}}
{{- end -}}
{{- end -}}

{{/* The Deployment/Service name of one service: (dict "root" $ "name" "account") */}}
{{- define "mimamori.serviceName" -}}
{{- printf "%s-%s" (include "mimamori.fullname" .root) .name -}}
{{- end -}}

{{- define "mimamori.chartLabels" -}}
helm.sh/chart: {{ printf "%s-%s" .Chart.Name .Chart.Version | replace "+" "_" }}
app.kubernetes.io/part-of: mimamori
app.kubernetes.io/version: {{ .Chart.AppVersion | quote }}
app.kubernetes.io/managed-by: {{ .Release.Service }}
{{- end -}}

{{/* Labels of a release-wide object (Secret, Ingress). */}}
{{- define "mimamori.labels" -}}
{{ include "mimamori.chartLabels" . }}
app.kubernetes.io/instance: {{ .Release.Name }}
{{- end -}}

{{/* Labels of one service's objects: (dict "root" $ "name" "account") */}}
{{- define "mimamori.serviceLabels" -}}
{{ include "mimamori.chartLabels" .root }}
{{ include "mimamori.selectorLabels" . }}
{{- end -}}

{{/* Selector labels of one service: (dict "root" $ "name" "account") */}}
{{- define "mimamori.selectorLabels" -}}
app.kubernetes.io/name: {{ .name }}
app.kubernetes.io/instance: {{ .root.Release.Name }}
{{- end -}}

{{- define "mimamori.secretName" -}}
{{- .Values.secret.existingSecret | default (printf "%s-connections" (include "mimamori.fullname" .)) -}}
{{- end -}}

{{/* The chat platforms' secrets that are set, as YAML (name: value), for the chart's Secret. */}}
{{- define "mimamori.chatSecrets" -}}
{{- $all := dict "SLACK_CLIENT_SECRET" .Values.chat.slack.clientSecret "SLACK_SIGNING_SECRET" .Values.chat.slack.signingSecret "LINE_CHANNEL_ACCESS_TOKEN" .Values.chat.line.channelAccessToken "LINE_CHANNEL_SECRET" .Values.chat.line.channelSecret "TELEGRAM_BOT_TOKEN" .Values.chat.telegram.botToken "TELEGRAM_WEBHOOK_SECRET" .Values.chat.telegram.webhookSecret -}}
{{- range $key, $value := $all }}
{{- if $value }}
{{ $key }}: {{ $value | quote }}
{{- end }}
{{- end }}
{{- end -}}
